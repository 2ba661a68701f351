# contraction-scale.gp - written by akm from the CSV files in this folder.
# Re-render contraction-scale.png and contraction-scale.svg from inside this folder:  gnuplot contraction-scale.gp
set datafile separator ','
set datafile missing NaN
set title 'T7 one-step mean factor E[u_iᵀ(βI − ηkkᵀ)u_i], Gaussian keys: normalized flat, raw β − ηλ_is^2'
set xlabel 'input scale s'
set ylabel 'mean factor along u_i'
set logscale x
set grid
set key outside top left horizontal
set yrange [-2:1.1]
set key bottom left
set linetype 1 lc rgb '#1b9e77'
set linetype 2 lc rgb '#1b9e77'
set linetype 3 lc rgb '#d95f02'
set linetype 4 lc rgb '#d95f02'
set linetype 5 lc rgb '#7570b3'
set linetype 6 lc rgb '#7570b3'
set linetype 7 lc rgb '#e7298a'
set linetype 8 lc rgb '#e7298a'
set arrow from 1.5,graph 0 to 1.5,graph 1 nohead dt 2 lc rgb 'gray50'
set arrow from 2.1794494717703365,graph 0 to 2.1794494717703365,graph 1 nohead lw 2 lc rgb 'red'
set arrow from graph 0,first -1 to graph 1,first -1 nohead dt 3 lc rgb 'red'
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'contraction-scale.png'
plot 'data_contraction.csv' every ::1 using 6:(strcol(1) eq 'gaussian|raw|u1|lag=1' ? $10 : NaN):11 with yerrorbars pt 7 ps 0.8 title 'raw u1 measured', \
     'data_contraction.csv' every ::1 using 6:(strcol(1) eq 'gaussian|raw|u1|lag=1' ? $8 : NaN) with lines lw 2 title 'raw u1 predicted', \
     'data_contraction.csv' every ::1 using 6:(strcol(1) eq 'gaussian|raw|u32|lag=1' ? $10 : NaN):11 with yerrorbars pt 7 ps 0.8 title 'raw u32 measured', \
     'data_contraction.csv' every ::1 using 6:(strcol(1) eq 'gaussian|raw|u32|lag=1' ? $8 : NaN) with lines lw 2 title 'raw u32 predicted', \
     'data_contraction.csv' every ::1 using 6:(strcol(1) eq 'gaussian|normalized eta=0.5|u1|lag=1' ? $10 : NaN):11 with yerrorbars pt 7 ps 0.8 title 'normalized eta=0.5 u1 measured', \
     'data_contraction.csv' every ::1 using 6:(strcol(1) eq 'gaussian|normalized eta=0.5|u1|lag=1' ? $8 : NaN) with lines lw 2 title 'normalized eta=0.5 u1 predicted', \
     'data_contraction.csv' every ::1 using 6:(strcol(1) eq 'gaussian|normalized eta=0.5|u32|lag=1' ? $10 : NaN):11 with yerrorbars pt 7 ps 0.8 title 'normalized eta=0.5 u32 measured', \
     'data_contraction.csv' every ::1 using 6:(strcol(1) eq 'gaussian|normalized eta=0.5|u32|lag=1' ? $8 : NaN) with lines lw 2 title 'normalized eta=0.5 u32 predicted'
set terminal svg size 900,600 dynamic enhanced
set output 'contraction-scale.svg'
replot
unset output
