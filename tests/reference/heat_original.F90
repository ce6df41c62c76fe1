! An independent Fortran transcription of problems.md section 1, written in
! the style of the original study (u(i,j), i contiguous, 1-based), used only
! by the tests as a held-out reference. Build with -DFP32 for single precision.
! usage: heat_original nx ny steps output.txt
program heat_original
  implicit none
#ifdef FP32
  integer, parameter :: rk = kind(1.0)
#else
  integer, parameter :: rk = kind(1.0d0)
#endif
  integer :: nx, ny, steps, i, j, n
  real(rk), allocatable :: u(:,:), v(:,:)
  real(rk) :: alpha
  character(len=256) :: arg, outfile

  call get_command_argument(1, arg); read(arg, *) nx
  call get_command_argument(2, arg); read(arg, *) ny
  call get_command_argument(3, arg); read(arg, *) steps
  call get_command_argument(4, outfile)
  alpha = 0.1_rk
  allocate(u(nx, ny), v(nx, ny))
  u = 0.0_rk
  v = 0.0_rk
  u((nx + 1) / 2, (ny + 1) / 2) = 1.0_rk

  do n = 1, steps
    if (mod(n, 2) == 1) then
      do j = 2, ny - 1
        do i = 2, nx - 1
          v(i, j) = u(i, j) + alpha * (u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1) - 4.0_rk * u(i, j))
        end do
      end do
    else
      do j = 2, ny - 1
        do i = 2, nx - 1
          u(i, j) = v(i, j) + alpha * (v(i-1, j) + v(i+1, j) + v(i, j-1) + v(i, j+1) - 4.0_rk * v(i, j))
        end do
      end do
    end if
  end do
  if (mod(steps, 2) == 1) u = v

  open(unit=10, file=trim(outfile), status='replace', action='write')
  write(10, '(I0, 1X, I0)') nx, ny
  do j = 1, ny
    do i = 1, nx
      write(10, '(ES25.16E3)') real(u(i, j), kind(1.0d0))
    end do
  end do
  close(10)
  ! Freed explicitly: Fortran leaves main-program arrays to the exit, which
  ! LeakSanitizer (the debug preset) reports as leaks.
  deallocate(u, v)
end program heat_original
